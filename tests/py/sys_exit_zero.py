import sys
print("exiting cleanly")
sys.exit(0)
