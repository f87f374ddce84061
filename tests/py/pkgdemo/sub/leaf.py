from .. import helper
from . import __name__ as pkgname
LEAF = "leaf:" + str(helper.double(2))
def where():
    return __name__ + " in " + pkgname
