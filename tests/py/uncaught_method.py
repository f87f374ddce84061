class Calc:
    def div(self, a, b):
        return a / b
    def run(self):
        return [self.div(10, n) for n in (5, 2, 0)]
print(Calc().run())
