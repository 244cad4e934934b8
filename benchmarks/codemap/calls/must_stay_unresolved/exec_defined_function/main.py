namespace = {}
exec("def generated():\n    return 1", namespace)  # unresolved
namespace["generated"]()  # unresolved
