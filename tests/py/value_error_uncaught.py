int("not a number")
