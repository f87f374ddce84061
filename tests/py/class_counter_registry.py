class Meta:
    instances = {}
    def __init_subclass__(cls):
        Meta.instances[cls.__name__] = 0
    def __init__(self):
        Meta.instances[type(self).__name__] += 1
class Cat(Meta): pass
class Dog(Meta): pass
for _ in range(3): Cat()
Dog()
print(Meta.instances)
class Plugin:
    plugins = []
    def __init_subclass__(cls, name=None, **kw):
        super().__init_subclass__(**kw)
        cls.plugin_name = name or cls.__name__.lower()
        Plugin.plugins.append(cls.plugin_name)
class CsvPlugin(Plugin, name="csv"): pass
class JsonPlugin(Plugin): pass
print(Plugin.plugins, CsvPlugin.plugin_name)
