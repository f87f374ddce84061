NAME = "pkgdemo"
