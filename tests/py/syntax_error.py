print("this never runs")
x = = 1
