def is_leap(y):
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
def day_of_week(y, m, d):
    t = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
    if m < 3:
        y -= 1
    return (y + y // 4 - y // 100 + y // 400 + t[m - 1] + d) % 7
names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
print([y for y in range(1896, 1920) if is_leap(y)])
print(names[day_of_week(2000, 1, 1)], names[day_of_week(2024, 2, 29)], names[day_of_week(1969, 7, 20)])
days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
def calendar(y, m):
    first = day_of_week(y, m, 1)
    n = days[m - 1] + (1 if m == 2 and is_leap(y) else 0)
    cells = ["  "] * first + [f"{d:2}" for d in range(1, n + 1)]
    rows = [" ".join(cells[i:i + 7]) for i in range(0, len(cells), 7)]
    return "Su Mo Tu We Th Fr Sa\n" + "\n".join(rows)
print(calendar(2024, 2))
