import os, os.path
print(os.path.join("a", "b", "c.txt"), os.path.join("/x", "/abs"), os.path.basename("/a/b/c.py"), os.path.dirname("/a/b/c.py"))
print(os.path.split("/a/b/c"), os.path.splitext("archive.tar.gz"), os.path.splitext("noext"), os.path.isabs("/x"), os.path.isabs("x"))
print(os.path.normpath("a/./b/../c//d"), os.sep, os.path.exists(__file__), os.path.isfile(__file__), os.path.isdir("."))
print(os.path.abspath(".") == os.getcwd(), type(os.getpid()).__name__, os.name)
d = "tmpy_os_path_dir"
os.makedirs(os.path.join(d, "sub"), exist_ok=True)
with open(os.path.join(d, "f.txt"), "w") as f:
    f.write("x")
print(sorted(os.listdir(d)), os.path.isdir(os.path.join(d, "sub")))
os.remove(os.path.join(d, "f.txt")); os.rmdir(os.path.join(d, "sub")); os.rmdir(d)
print(os.path.exists(d), os.environ.get("TMPY_SURELY_UNSET", "unset"), "PATH" in os.environ)
