"""File > Import / Export > Parkan model and Parkan map. Each runs mshconv between the game file
and a GLB in a temporary folder and Blender's own glTF importer/exporter with the round trip's
settings; mshconv's messages become Blender reports."""
import json
import os
import re
import shutil
import struct
import tempfile

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, StringProperty
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import mshconv
from .mshconv import MshconvError

_model_items = {}  # path -> enum items (Blender needs the strings kept alive)


def model_items(self, context):
    path = bpy.path.abspath(self.filepath) if self.filepath else ""
    if path not in _model_items:
        items = []
        if os.path.isfile(path) and mshconv.is_archive(path):
            try:
                items = [(n, n, f"{n} in {os.path.basename(path)}")
                         for n in mshconv.archive_models(context, path)]
            except MshconvError:
                items = []
        _model_items[path] = items or [("", "(the file is one model)", "")]
    return _model_items[path]


def glb_scene_extras(glb):
    """The default scene's extras of a GLB (mshconv's pairing token and export facts)."""
    with open(glb, "rb") as f:
        data = f.read()
    length, kind = struct.unpack_from("<I4s", data, 12)
    doc = json.loads(data[20:20 + length])
    scenes = doc.get("scenes", [])
    scene = scenes[doc.get("scene", 0)] if scenes else {}
    return scene.get("extras", {})


def safe_stem(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.splitext(os.path.basename(name))[0]) or "model"


def import_glb(context, glb, name):
    """Blender's glTF importer into a new collection `name`, made active; returns it."""
    import numpy
    numpy.bool = bool  # Debian 12's numpy lacks the alias Blender 3.4's glTF importer uses
    collection = bpy.data.collections.new(name)
    context.scene.collection.children.link(collection)
    before = set(bpy.data.objects)
    result = bpy.ops.import_scene.gltf(filepath=glb)
    if "FINISHED" not in result:
        raise MshconvError(f"Blender's glTF importer could not read {glb}")
    # The importer links to the context's collection, which a script's context may not have
    # set: move what it made into the model's own collection.
    for obj in set(bpy.data.objects) - before:
        for c in list(obj.users_collection):
            c.objects.unlink(obj)
        collection.objects.link(obj)
    layer = mshconv.layer_collection_of(context.view_layer.layer_collection, collection)
    context.view_layer.active_layer_collection = layer
    return collection


def frame_range_from(collection, scene):
    """The scene's frame range follows the imported animation."""
    ranges = [o.animation_data.action.frame_range for o in collection.objects
              if o.animation_data and o.animation_data.action]
    if ranges:
        scene.frame_start = int(min(r[0] for r in ranges))
        scene.frame_end = max(int(max(r[1] for r in ranges)), scene.frame_start + 1)


def export_glb(context, collection, folder):
    """The collection as GLB with the round trip's settings, and its sidecar beside it."""
    stem = collection["parkan_stem"]
    glb = os.path.join(folder, stem + ".glb")
    sidecar = os.path.join(folder, stem + ".sidecar.json")
    text = bpy.data.texts.get(collection["parkan_sidecar"])
    if text is None:
        raise MshconvError(f"the sidecar text block {collection['parkan_sidecar']} is gone: "
                           "import the model again")
    with open(sidecar, "w", encoding="utf-8") as f:
        f.write(text.as_string())
    scene = context.scene
    extras = json.loads(collection["parkan_scene_extras"])
    saved = {k: scene[k] for k in extras if k in scene}
    view_layer = context.view_layer
    previous = view_layer.active_layer_collection
    layer = mshconv.layer_collection_of(view_layer.layer_collection, collection)
    if layer is None:
        raise MshconvError(f"collection {collection.name} is not in this scene")
    try:
        for k, v in extras.items():
            scene[k] = v
        view_layer.active_layer_collection = layer
        result = bpy.ops.export_scene.gltf(filepath=glb, use_active_collection=True,
                                           use_selection=False, use_visible=False,
                                           use_renderable=False, **mshconv.GLTF_EXPORT)
        if "FINISHED" not in result:
            raise MshconvError("Blender's glTF exporter failed")
    finally:
        for k in extras:
            if k in saved:
                scene[k] = saved[k]
            elif k in scene:
                del scene[k]
        view_layer.active_layer_collection = previous
    return glb, sidecar


class _ReportsErrors:
    """execute() runs self.run(); mshconv's and the file system's errors become Blender error
    reports, never tracebacks."""

    def execute(self, context):
        try:
            return self.run(context)
        except MshconvError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        except (OSError, ValueError, KeyError) as e:  # a temporary folder, a damaged record
            self.report({"ERROR"}, f"Parkan: {e}")
            return {"CANCELLED"}


class ImportParkanModel(bpy.types.Operator, ImportHelper, _ReportsErrors):
    """Import a Parkan MSH model (a loose .msh, or a model of an NRes archive)"""
    bl_idname = "import_scene.parkan_model"
    bl_label = "Import Parkan model"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".msh"
    filter_glob: StringProperty(default="*.msh;*.MSH;*.rlb;*.RLB", options={"HIDDEN"})
    model: EnumProperty(name="Model", description="The model of the archive to import",
                        items=model_items)
    entry: StringProperty(name="Entry", default="",
                          description="The model entry by name (overrides Model; for scripts)")
    lod: EnumProperty(name="LOD", default="all", items=[
        ("all", "All", "Every LOD; LOD 1 and 2 objects hidden"), ("0", "0", ""), ("1", "1", ""),
        ("2", "2", "")])
    group: EnumProperty(name="Group", default="all", items=[
        ("all", "All", "Every slot group; groups 1-4 hidden")] +
        [(str(g), str(g), "") for g in range(5)])
    skin: BoolProperty(name="Skin", default=False,
                       description="One skinned mesh per LOD/group whose joints are the nodes")
    fps: FloatProperty(name="FPS", default=24.0, min=1.0, max=1000.0,
                       description="Frames per second of the animation keys")
    game_dir: StringProperty(name="Game folder", subtype="DIR_PATH", default="",
                             description="Folder with Material.lib and Textures.lib (empty: the "
                                         "model's own folder)")

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "model")
        layout.prop(self, "lod")
        layout.prop(self, "group")
        layout.prop(self, "skin")
        layout.prop(self, "fps")
        layout.prop(self, "game_dir")

    def run(self, context):
        path = bpy.path.abspath(self.filepath)
        if not os.path.isfile(path):
            raise MshconvError(f"no such file: {path}")
        models = mshconv.archive_models(context, path) if mshconv.is_archive(path) else []
        entry = self.entry or (self.model if models else "")
        if models and not entry:
            entry = models[0]
        if models and entry.lower() not in (m.lower() for m in models):
            raise MshconvError(f"{os.path.basename(path)} has no model {entry} "
                               f"(models: {', '.join(models[:8])})")
        source = f"{path}:{entry}" if models else path
        stem = safe_stem(entry or path)
        folder = tempfile.mkdtemp(prefix="parkan_")
        try:
            glb = os.path.join(folder, stem + ".glb")
            args = ["convert", source, glb, "--lod", self.lod, "--group", self.group,
                    "--fps", repr(self.fps)]
            if self.skin:
                args.append("--skin")
            if self.game_dir:
                args += ["--game-dir", bpy.path.abspath(self.game_dir)]
            output = mshconv.run(context, *args, temporary=folder,
                                 label=os.path.basename(source))
            with open(os.path.join(folder, stem + ".sidecar.json"), encoding="utf-8") as f:
                sidecar = f.read()
            collection = import_glb(context, glb, stem)
            mshconv.remember(collection, "model", source, sidecar, glb_scene_extras(glb))
            collection["parkan_file"] = path
            collection["parkan_entry"] = entry if models else ""
            collection["parkan_stem"] = stem
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        # Other LODs and groups stay editable but hidden: the default view is the game's.
        for obj in collection.objects:
            if re.search(r"@(lod\d|g\d)", obj.name):
                obj.hide_set(True)
                obj.hide_render = True
        frame_range_from(collection, context.scene)
        for warning in output.warnings:
            self.report({"WARNING"}, warning)
        self.report({"INFO"}, f"Imported {os.path.basename(source)}: "
                              f"{len(collection.objects)} objects")
        return {"FINISHED"}


def import_game_folder_file(context, kind, path, extra_args=()):
    """A map's Land.msh or a level's data.tma: converted to GLB in a temporary folder, imported
    into a collection named after its folder, its import record kept; returns the collection and
    mshconv's output."""
    if not os.path.isfile(path):
        raise MshconvError(f"no such file: {path}")
    stem = safe_stem(os.path.basename(os.path.dirname(path)) or kind)
    folder = tempfile.mkdtemp(prefix="parkan_")
    try:
        glb = os.path.join(folder, stem + ".glb")
        output = mshconv.run(context, "convert", path, glb, *extra_args, temporary=folder,
                             label=os.path.basename(path))
        with open(os.path.join(folder, stem + ".sidecar.json"), encoding="utf-8") as f:
            sidecar = f.read()
        collection = import_glb(context, glb, stem)
        mshconv.remember(collection, kind, path, sidecar, glb_scene_extras(glb))
        collection["parkan_file"] = path
        collection["parkan_entry"] = ""
        collection["parkan_stem"] = stem
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return collection, output


class ImportParkanMap(bpy.types.Operator, ImportHelper, _ReportsErrors):
    """Import a Parkan map: Land.msh with the Land.map and WEARs beside it"""
    bl_idname = "import_scene.parkan_map"
    bl_label = "Import Parkan map"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".msh"
    filter_glob: StringProperty(default="*.msh;*.MSH", options={"HIDDEN"})

    def run(self, context):
        path = bpy.path.abspath(self.filepath)
        collection, output = import_game_folder_file(context, "map", path)
        for warning in output.warnings:
            self.report({"WARNING"}, warning)
        self.report({"INFO"}, f"Imported map {path}: {len(collection.objects)} objects")
        return {"FINISHED"}


def hide_unshown_parts(collection):
    """The parts a level keeps hidden (armour, internals, ammo: `mshconv_level.shown` false) and
    everything below them: Blender's importer does not read KHR_node_visibility."""
    def hide(obj):
        obj.hide_set(True)
        obj.hide_render = True
        for child in obj.children:
            hide(child)
    for obj in collection.objects:
        level = obj.get("mshconv_level")
        if level is not None and "part" in level and not level.get("shown", True):
            hide(obj)


class ImportParkanLevel(bpy.types.Operator, ImportHelper, _ReportsErrors):
    """Import a Parkan level: a mission's data.tma with its map and every placed object"""
    bl_idname = "import_scene.parkan_level"
    bl_label = "Import Parkan level"
    bl_options = {"REGISTER", "UNDO"}

    filename_ext = ".tma"
    filter_glob: StringProperty(default="*.tma;*.TMA", options={"HIDDEN"})
    game_dir: StringProperty(name="Game folder", subtype="DIR_PATH", default="",
                             description="The folder holding objects.rlb (empty: found above "
                                         "the mission)")

    def run(self, context):
        path = bpy.path.abspath(self.filepath)
        game = ["--game-dir", bpy.path.abspath(self.game_dir)] if self.game_dir else []
        collection, output = import_game_folder_file(context, "level", path, game)
        hide_unshown_parts(collection)
        for warning in output.warnings:
            self.report({"WARNING"}, warning)
        self.report({"INFO"}, f"Imported level {path}: {len(collection.objects)} objects")
        return {"FINISHED"}


class _ExportParkan(ExportHelper, _ReportsErrors):
    kind = "model"
    filename_ext = ".msh"
    check_extension = None  # an archive (.rlb) is a valid target too

    def invoke(self, context, event):
        try:
            collection = mshconv.imported_collection(context, self.kind)
        except MshconvError as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        except (OSError, ValueError, KeyError) as e:  # a temporary folder, a damaged record
            self.report({"ERROR"}, f"Parkan: {e}")
            return {"CANCELLED"}
        self.filepath = collection["parkan_file"]
        if hasattr(self, "entry"):
            self.entry = collection["parkan_entry"]
        context.window_manager.fileselect_add(self)
        return {"RUNNING_MODAL"}

    def target(self, collection):
        raise NotImplementedError

    def run(self, context):
        collection = mshconv.imported_collection(context, self.kind)
        target = self.target(collection)
        folder = tempfile.mkdtemp(prefix="parkan_")
        try:
            glb, sidecar = export_glb(context, collection, folder)
            report = os.path.join(folder, "report.json")
            output = mshconv.run(context, "convert", glb, target, "--sidecar", sidecar,
                                 "--report", report, temporary=folder,
                                 label=f"the Blender scene ({collection.name})")
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        mshconv.report(self, output)
        return {"FINISHED"}


class ExportParkanModel(bpy.types.Operator, _ExportParkan):
    """Export the selected Parkan model back into its archive entry or file (or a new one)"""
    bl_idname = "export_scene.parkan_model"
    bl_label = "Export Parkan model"
    kind = "model"

    filter_glob: StringProperty(default="*.msh;*.MSH;*.rlb;*.RLB;*.lib;*.LIB", options={"HIDDEN"})
    entry: StringProperty(name="Entry", default="",
                          description="The model's entry when the file is an archive")

    def target(self, collection):
        path = bpy.path.abspath(self.filepath) if self.filepath else collection["parkan_file"]
        entry = self.entry if self.filepath else collection["parkan_entry"]
        archive = os.path.isfile(path) and mshconv.is_archive(path) and \
            not path.lower().endswith(".msh")
        if archive and not entry:
            raise MshconvError(f"{os.path.basename(path)} is an archive: name the entry to write")
        return f"{path}:{entry}" if archive else path


class ExportParkanMap(bpy.types.Operator, _ExportParkan):
    """Export the Parkan map back to its Land.msh (and Land.map beside it), or a new folder"""
    bl_idname = "export_scene.parkan_map"
    bl_label = "Export Parkan map"
    kind = "map"

    filter_glob: StringProperty(default="*.msh;*.MSH", options={"HIDDEN"})

    def target(self, collection):
        return bpy.path.abspath(self.filepath) if self.filepath else collection["parkan_file"]


class ExportParkanLevel(bpy.types.Operator, _ExportParkan):
    """Export the Parkan level's moved objects back to its data.tma (or a new file)"""
    bl_idname = "export_scene.parkan_level"
    bl_label = "Export Parkan level"
    kind = "level"
    filename_ext = ".tma"

    filter_glob: StringProperty(default="*.tma;*.TMA", options={"HIDDEN"})

    def target(self, collection):
        return bpy.path.abspath(self.filepath) if self.filepath else collection["parkan_file"]
