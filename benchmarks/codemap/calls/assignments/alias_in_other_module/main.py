from api import run

run()
