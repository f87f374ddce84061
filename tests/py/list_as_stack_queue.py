stack = []
for c in "([{}])":
    if c in "([{":
        stack.append(c)
    else:
        stack.pop()
print("balanced" if not stack else "unbalanced")
def balanced(s):
    pairs = {")": "(", "]": "[", "}": "{"}
    st = []
    for c in s:
        if c in "([{":
            st.append(c)
        elif c in pairs:
            if not st or st.pop() != pairs[c]:
                return False
    return not st
print([balanced(s) for s in ["()[]{}", "([)]", "((", "", "{[()()]}"]])
from collections import deque
q = deque()
for i in range(5):
    q.append(i)
out = []
while q:
    v = q.popleft()
    out.append(v)
    if v < 3:
        q.append(v + 10)
print(out)
