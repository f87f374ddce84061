words = ["banana", "Apple", "cherry", "apple", "Banana", "10", "9", "_x"]
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=lambda w: (len(w), w)))
print("a" < "b", "B" < "a", "abc" < "abd", "abc" < "ab", "" < "a", "Z" > "A", "apple" == "apple", "a" != "A")
print(max(words), min(words), sorted(set(w.lower() for w in words)))
print("é" > "e", "z" < "é", ["b", "a"] < ["b", "b"], ("a", 2) < ("a", 10))
