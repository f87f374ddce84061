"""Future statement definitions: each feature's first optional release, the
release where it became (or becomes) the default, and the compile() flag
that turns it on (CPython 3.11's values)."""

# (name, optional release, mandatory release or None, compiler flag name, flag)
_FEATURES = [
    ("nested_scopes", (2, 1, 0, "beta", 1), (2, 2, 0, "alpha", 0), "CO_NESTED", 0x0010),
    ("generators", (2, 2, 0, "alpha", 1), (2, 3, 0, "final", 0), "CO_GENERATOR_ALLOWED", 0),
    ("division", (2, 2, 0, "alpha", 2), (3, 0, 0, "alpha", 0), "CO_FUTURE_DIVISION", 0x20000),
    ("absolute_import", (2, 5, 0, "alpha", 1), (3, 0, 0, "alpha", 0), "CO_FUTURE_ABSOLUTE_IMPORT", 0x40000),
    ("with_statement", (2, 5, 0, "alpha", 1), (2, 6, 0, "alpha", 0), "CO_FUTURE_WITH_STATEMENT", 0x80000),
    ("print_function", (2, 6, 0, "alpha", 2), (3, 0, 0, "alpha", 0), "CO_FUTURE_PRINT_FUNCTION", 0x100000),
    ("unicode_literals", (2, 6, 0, "alpha", 2), (3, 0, 0, "alpha", 0), "CO_FUTURE_UNICODE_LITERALS", 0x200000),
    ("barry_as_FLUFL", (3, 1, 0, "alpha", 2), (4, 0, 0, "alpha", 0), "CO_FUTURE_BARRY_AS_BDFL", 0x400000),
    ("generator_stop", (3, 5, 0, "beta", 1), (3, 7, 0, "alpha", 0), "CO_FUTURE_GENERATOR_STOP", 0x800000),
    ("annotations", (3, 7, 0, "beta", 1), None, "CO_FUTURE_ANNOTATIONS", 0x1000000),
]

all_feature_names = [f[0] for f in _FEATURES]

__all__ = ["all_feature_names"] + all_feature_names


class _Feature:
    def __init__(self, optionalRelease, mandatoryRelease, compiler_flag):
        self.optional = optionalRelease
        self.mandatory = mandatoryRelease
        self.compiler_flag = compiler_flag

    def getOptionalRelease(self):
        """The first release in which the feature was accepted."""
        return self.optional

    def getMandatoryRelease(self):
        """The release in which the feature becomes the default, or None
        if that is not decided."""
        return self.mandatory

    def __repr__(self):
        return "_Feature" + repr((self.optional, self.mandatory, self.compiler_flag))


for _name, _optional, _mandatory, _flag_name, _flag in _FEATURES:
    globals()[_flag_name] = _flag
    globals()[_name] = _Feature(_optional, _mandatory, _flag)
del _name, _optional, _mandatory, _flag_name, _flag
