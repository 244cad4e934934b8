def list_users():
    return []


def create_user():
    return {}


API = {"users": {"list": list_users, "create": create_user}}


def run():
    return API["users"]["create"]()


run()
