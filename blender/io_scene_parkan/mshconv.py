"""Running mshconv, and what an imported model remembers (on its collection and in a text block
of the .blend): where it came from, its sidecar and the scene-level glTF extras its export needs."""
import json
import os
import platform as _platform
import re
import shutil
import subprocess
import sys

import bpy


class MshconvError(Exception):
    """A message for the user (shown as a Blender error report, never as a traceback)."""


# The glTF settings of the lossless round trip (README "For modders", docs/sidecar.md): custom
# properties carry node identity, every UV set is kept (TEXCOORD_1 is the vertex identity), keys
# are not resampled.
GLTF_EXPORT = dict(
    export_format="GLB",
    export_extras=True,
    export_texcoords=True,
    export_normals=True,
    export_materials="EXPORT",
    export_yup=True,
    export_apply=False,
    export_animations=True,
    export_force_sampling=False,
    export_optimize_animation_size=False,
    export_current_frame=False,
)


def bundled(platform=sys.platform, machine=None):
    """The mshconv the release zip carries for this system (bin/linux-x86_64/mshconv,
    bin/windows-x86_64/mshconv.exe), or None."""
    machine = (machine or _platform.machine()).lower()
    if machine not in ("x86_64", "amd64"):
        return None
    if platform == "win32":
        return os.path.join(os.path.dirname(__file__), "bin", "windows-x86_64", "mshconv.exe")
    if platform.startswith("linux"):
        return os.path.join(os.path.dirname(__file__), "bin", "linux-x86_64", "mshconv")
    return None


def executable(context):
    """The mshconv to run: the preference, else `mshconv` on PATH, else the one the release zip
    carries for this system, else the build the add-on zip was made from (mshconv_path.txt)."""
    prefs = context.preferences.addons[__package__].preferences
    if prefs.mshconv_path:
        path = bpy.path.abspath(prefs.mshconv_path)
        if not os.access(path, os.X_OK):
            raise MshconvError(f"mshconv not found at {path} (add-on preferences)")
        return path
    on_path = shutil.which("mshconv")
    if on_path:
        return on_path
    carried = bundled()
    if carried and os.path.isfile(carried):
        # Blender unpacks an add-on's zip without the files' modes.
        if not os.access(carried, os.X_OK):
            os.chmod(carried, 0o755)
        return carried
    packaged = os.path.join(os.path.dirname(__file__), "mshconv_path.txt")
    if os.path.exists(packaged):
        path = open(packaged).read().strip()
        if os.access(path, os.X_OK):
            return path
    raise MshconvError("mshconv not found: set its path in the add-on preferences "
                       "(Edit > Preferences > Add-ons > Parkan)")


class Output(list):
    """mshconv's report lines (stdout); `warnings` holds its warnings (stderr), each once."""

    def __init__(self, lines, warnings):
        super().__init__(lines)
        self.warnings = warnings


def readable(text, temporary=None, label="Blender's export"):
    """A message as the user should read it: paths inside the add-on's temporary folder (gone by
    the time the user reads it) become what they stand for."""
    if temporary:
        folder = re.escape(os.path.normpath(temporary))
        text = re.sub(folder + r"[/\\][^\s:,;()']*", label, text)
    return text


def run(context, *args, temporary=None, label="Blender's export"):
    """Runs mshconv; its stdout lines on success (an Output, with its warnings), MshconvError with
    its message otherwise. Paths inside `temporary` are shown as `label`."""
    try:
        r = subprocess.run([executable(context), *args], capture_output=True, text=True)
    except OSError as e:
        raise MshconvError(f"mshconv could not be started: {e}") from None
    err = [readable(l, temporary, label) for l in r.stderr.splitlines() if l.strip()]
    if r.returncode != 0:
        errors = [l for l in err if l.startswith("error:")] or err or [f"exit {r.returncode}"]
        raise MshconvError("mshconv: " + " / ".join(e.removeprefix("error: ") for e in errors))
    warnings = []
    for line in err:
        if line.startswith("warning:"):
            text = line.removeprefix("warning:").strip()
            if text not in warnings:
                warnings.append(text)
    return Output([readable(l, temporary, label) for l in r.stdout.splitlines() if l.strip()],
                  warnings)


def report(operator, output):
    """mshconv's warnings (once each) and report lines into Blender's report."""
    for warning in output.warnings:
        operator.report({"WARNING"}, warning)
    for line in output:
        operator.report({"INFO"}, line.strip())


ROW = re.compile(r"^(\d+)\s+(.*?)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$")


def archive_models(context, archive):
    """The model entries (`*.msh`) of an NRes archive, in directory order."""
    names = []
    for line in run(context, "nres", "list", archive)[1:]:
        m = ROW.match(line.strip())
        if m and m.group(2).lower().endswith(".msh"):
            names.append(m.group(2))
    return names


def is_archive(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"NRes"
    except OSError:
        return False


# ---- what an import remembers ----

def remember(collection, kind, target, sidecar_text, scene_extras):
    """Stores the import record on its collection; the sidecar goes into a text block."""
    text = bpy.data.texts.new(f"{collection.name}.sidecar.json")
    text.from_string(sidecar_text)
    collection["parkan_kind"] = kind
    collection["parkan_target"] = target
    collection["parkan_sidecar"] = text.name
    collection["parkan_scene_extras"] = json.dumps(scene_extras)


def imported_collection(context, kind):
    """The collection of the Parkan import the user means: the active object's, else the active
    collection, else the only one there is."""
    def ours(c):
        return c is not None and c.get("parkan_kind") == kind
    obj = context.active_object
    if obj is not None:
        for c in obj.users_collection:
            if ours(c):
                return c
    active = context.view_layer.active_layer_collection.collection
    if ours(active):
        return active
    found = [c for c in bpy.data.collections if ours(c)]
    if len(found) == 1:
        return found[0]
    what = kind
    if not found:
        raise MshconvError(f"no imported Parkan {what} here (File > Import > Parkan {what})")
    raise MshconvError(f"several Parkan {what}s: select an object of the one to export")


def layer_collection_of(layer, collection):
    if layer.collection == collection:
        return layer
    for child in layer.children:
        found = layer_collection_of(child, collection)
        if found:
            return found
    return None


def property_value(value):
    """An ID property as plain JSON data."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if hasattr(value, "to_list"):
        return value.to_list()
    return value
