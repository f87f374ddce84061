if a:
	if b:
		pass
	else:
		x = [
	1,
		2,
  3]
elif c:  # comment
    y = 1 \
        + 2
    # a comment at another indent
        # and another
    z = 3
else: w = 4; v = 5

while True:
    break
class E: pass
def g(): return
