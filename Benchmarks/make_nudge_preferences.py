#!/usr/bin/env python3
"""Writes the per-device preferences file used for the README's `geofence-bench nudges` figures.

CSV `device,time_zone,quiet_start,quiet_end,daily_cap,spacing_s,cooldown_s,locale` for devices
0..N-1 except every third one (those keep the benchmark's defaults). Zones cycle through
America/New_York, Asia/Tokyo, Europe/London, America/Los_Angeles and America/Chicago; quiet hours
through 21:30-06:30, 23:00-07:00, 22:00-08:00 (all wrapping midnight), none, and 00:30-05:00;
daily caps 1-3; spacing 0 s to 6 h; cooldown 15 min to 2 h. Deterministic: no randomness.

Usage: make_nudge_preferences.py [--devices 1000] > prefs.csv
"""
import argparse
import sys

ZONES = ["America/New_York", "Asia/Tokyo", "Europe/London", "America/Los_Angeles", "America/Chicago"]
LOCALES = ["en_US", "ja_JP", "en_GB", "en_US", "fi_FI"]
QUIET = [("21:30", "06:30"), ("23:00", "07:00"), ("22:00", "08:00"), ("", ""), ("00:30", "05:00")]
CAPS = [1, 2, 3, 1, 2]
SPACING_S = [1800, 3600, 7200, 0, 21600]
COOLDOWN_S = [1800, 3600, 7200, 900, 3600]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=1000)
    args = parser.parse_args()
    out = sys.stdout
    out.write("device,time_zone,quiet_start,quiet_end,daily_cap,spacing_s,cooldown_s,locale\n")
    for d in range(args.devices):
        if d % 3 == 2:
            continue
        z, q, c = d % 5, (d // 5) % 5, (d // 25) % 5
        out.write(f"{d},{ZONES[z]},{QUIET[q][0]},{QUIET[q][1]},{CAPS[c]},{SPACING_S[(d // 7) % 5]},"
                  f"{COOLDOWN_S[(d // 11) % 5]},{LOCALES[z]}\n")


if __name__ == "__main__":
    main()
