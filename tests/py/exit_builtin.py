print("using exit()")
exit(4)
