import pkg
from pkg import work

work()
pkg.work()
pkg.other()
