def get_item():
    return 1


def put_item():
    return 2


ROUTES = {}
ROUTES.update({"get": get_item})
ROUTES.update(put=put_item)
ROUTES["get"]()
ROUTES["put"]()
