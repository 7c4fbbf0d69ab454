#!/usr/bin/env python3
"""Fails when a public header (include/mshconv/*.hpp) includes anything but another public header
(<mshconv/NAME.hpp>) or a standard library header: a user of the installed package has only those.
Also fails on an option that is a string standing for an enum: a std::string member of an
...Options or ...Request struct whose comment lists the values it takes ("a", "b" or a | b | c,
or "a" or "b"), which an enum would spell.

usage: check_public_headers.py INCLUDE_DIR
"""
import os
import re
import sys

# The C++ standard library's headers (and the C headers it carries as <cNAME>).
STANDARD = set("""algorithm any array atomic bit bitset cassert cctype cerrno cfloat charconv chrono
cinttypes climits cmath compare concepts cstddef cstdint cstdio cstdlib cstring ctime deque
exception filesystem format functional initializer_list iomanip ios iosfwd iostream istream
iterator limits list map memory memory_resource mutex new numbers numeric optional ostream queue
random ranges ratio regex set shared_mutex source_location span sstream stack stdexcept
stop_token streambuf string string_view system_error thread tuple type_traits typeindex typeinfo
unordered_map unordered_set utility valarray variant vector version""".split())
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

root = os.path.abspath(sys.argv[1])
public = os.path.join(root, "mshconv")
bad = checked = 0
for name in sorted(os.listdir(public)):
    if not name.endswith(".hpp"):
        continue
    with open(os.path.join(public, name), encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            checked += 1
            bracket, target = m.groups()
            own = bracket == "<" and re.fullmatch(r"mshconv/[a-z_]+\.hpp", target) and \
                os.path.isfile(os.path.join(root, target))
            if own or (bracket == "<" and target in STANDARD):
                continue
            bad += 1
            shown = f"<{target}>" if bracket == "<" else f'"{target}"'
            print(f"mshconv/{name}:{number}: a public header includes {shown}")
# Options that are strings standing for enums.
STRUCT = re.compile(r"^struct (\w+(?:Options|Request)) \{")
STRING_MEMBER = re.compile(r"^\s+(?:std::optional<std::string>|std::string|std::vector<std::string>)"
                           r"\s+[\w, ]+(?:=[^;]*)?;\s*(?://(.*))?$")
CHOICES = re.compile(r'"\w+",\s*"\w+"|"\w+"\s+or\s+"\w+"|\w+\s*\|\s*\w+|\b[a-z]+, [a-z]+,? or [a-z]+\b')
enum_strings = 0
for name in sorted(os.listdir(public)):
    if not name.endswith(".hpp"):
        continue
    inside, comment = None, ""
    with open(os.path.join(public, name), encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if line.strip().startswith("//"):
                comment += line  # the comment above a member counts as its own
                continue
            if m := STRUCT.match(line):
                inside = m.group(1)
            elif line.startswith("};"):
                inside = None
            elif inside and (m := STRING_MEMBER.match(line)) and \
                    CHOICES.search(comment + (m.group(1) or "")):
                enum_strings += 1
                print(f"mshconv/{name}:{number}: {inside}: a string option lists its values; "
                      f"make it an enum: {line.strip()}")
            comment = ""
if enum_strings:
    sys.exit(f"FAIL: {enum_strings} string option(s) stand for enums")
if bad:
    sys.exit(f"FAIL: {bad} include(s) a user of the installed package does not have")
if checked == 0:
    sys.exit("FAIL: no public header found")
print(f"ok: {checked} includes of the public headers are public or standard")
