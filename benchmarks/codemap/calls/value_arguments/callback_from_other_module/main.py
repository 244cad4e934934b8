from runner import run
from tasks import build

run(build)
