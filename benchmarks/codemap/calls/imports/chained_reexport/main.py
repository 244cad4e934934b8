from pkg import api

api()
