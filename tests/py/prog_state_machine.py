TRANSITIONS = {
    ("locked", "coin"): "unlocked",
    ("locked", "push"): "locked",
    ("unlocked", "coin"): "unlocked",
    ("unlocked", "push"): "locked",
}
class Turnstile:
    def __init__(self):
        self.state = "locked"
        self.coins = 0
        self.passes = 0
    def feed(self, event):
        new = TRANSITIONS[(self.state, event)]
        if event == "coin":
            self.coins += 1
        if self.state == "unlocked" and event == "push":
            self.passes += 1
        self.state = new
        return new
t = Turnstile()
events = "coin push push coin coin push push coin".split()
print([t.feed(e) for e in events])
print(t.coins, t.passes, t.state)
