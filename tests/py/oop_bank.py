class InsufficientFunds(Exception):
    pass
class Account:
    _next_id = 1
    def __init__(self, owner, balance=0):
        self.owner = owner
        self._balance = balance
        self.id = Account._next_id
        Account._next_id += 1
        self.history = []
    @property
    def balance(self):
        return self._balance
    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        self._balance += amount
        self.history.append(("dep", amount))
    def withdraw(self, amount):
        if amount > self._balance:
            raise InsufficientFunds(f"{self.owner} has only {self._balance}")
        self._balance -= amount
        self.history.append(("wd", amount))
    def __repr__(self):
        return f"Account({self.id}, {self.owner!r}, {self._balance})"
class Savings(Account):
    rate = 0.02
    def add_interest(self):
        self.deposit(round(self._balance * self.rate, 2))
a, b = Account("ann", 100), Savings("bob", 1000)
a.deposit(50); b.add_interest()
try:
    a.withdraw(500)
except InsufficientFunds as e:
    print("refused:", e)
try:
    a.deposit(-1)
except ValueError as e:
    print("refused:", e)
print(a, b, a.history, b.history, b.balance)
try:
    a.balance = 5
except AttributeError as e:
    print("AttributeError")
