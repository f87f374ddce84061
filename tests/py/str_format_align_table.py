rows = [("Widget", 4, 3.5), ("Gadget", 12, 12.25), ("Thingamajig", 1, 100.0)]
print(f"{'Item':<12}{'Qty':>5}{'Price':>10}")
print("-" * 27)
for name, q, p in rows:
    print(f"{name:<12}{q:>5}{p:>10.2f}")
print("=" * 27)
total = sum(q * p for _, q, p in rows)
print(f"{'Total':<12}{'':>5}{total:>10.2f}")
print("{:<10}|{:^10}|{:>10}".format("left", "center", "right"))
print("{0:{fill}{align}{width}}".format("dyn", fill="*", align="^", width=11))
