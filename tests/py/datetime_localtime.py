# Local time under _datetime (vm/modules/datetime*.c) and time.tzset: fromtimestamp's fold in a
# repeated hour, timestamp() of times in a fold and in a gap, astimezone() to the local zone.
import os, time
from datetime import datetime, timezone
os.environ['TZ'] = 'EST+05EDT,M3.2.0,M11.1.0'; time.tzset()
print(time.tzname, time.timezone, time.altzone, time.daylight)
for ts in [1604210400, 1604212200, 1604214000, 1604215800, 1583650800]:
    d = datetime.fromtimestamp(ts); print(ts, d, d.fold, d.timestamp(), d.astimezone())
print(datetime(2020, 11, 1, 1, 30).timestamp(), datetime(2020, 11, 1, 1, 30, fold=1).timestamp(), datetime(2020, 3, 8, 2, 30).timestamp(), datetime(2020, 3, 8, 2, 30, fold=1).timestamp())
print(datetime(2020, 11, 1, 1, 30, fold=1).astimezone(timezone.utc), datetime(2020,7,1,tzinfo=timezone.utc).astimezone())
os.environ['TZ'] = 'UTC'; time.tzset(); print(time.tzname, datetime.fromtimestamp(0))
