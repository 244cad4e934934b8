from .impl import work
from .impl import helper as other
