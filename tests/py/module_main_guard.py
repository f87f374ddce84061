def main():
    print("main called", __name__)
if __name__ == "__main__":
    main()
import sys
print(sys.argv[0].endswith("module_main_guard.py"), len(sys.argv))
