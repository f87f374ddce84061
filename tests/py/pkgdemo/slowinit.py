# Imported by import_concurrent.py from several threads at once: the module
# takes a while to initialise, and no importer may see it half done.
import time

FIRST = 1
time.sleep(0.1)
LAST = 2
