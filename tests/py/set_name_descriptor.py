class Field:
    def __set_name__(self, owner, name):
        self.name = name
        self.owner = owner.__name__
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return obj.__dict__.get(self.name, f"<unset {self.name}>")
    def __set__(self, obj, value):
        obj.__dict__[self.name] = value
class Model:
    title = Field()
    count = Field()
m = Model(); m.title = "hello"
print(m.title, m.count, Model.title.name, Model.count.owner)
