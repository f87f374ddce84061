def load():
    try:
        {}["config"]
    except KeyError as e:
        raise RuntimeError("could not load config") from e
load()
