x = 0
for i in range(3000):
    x += i
import json
print(len(json.dumps([x])))
