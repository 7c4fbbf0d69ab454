"""Parkan: Iron Strategy models, maps and levels in and out of Blender in one step, through mshconv.

File > Import > Parkan model (.msh, or a model of an NRes archive) / Parkan map (Land.msh) /
Parkan level (a mission's data.tma); edit; File > Export > Parkan model / map / level writes it
back where it came from (or somewhere new).
The add-on runs the mshconv binary with exactly the glTF settings the lossless round trip needs;
the model's sidecar is kept inside the .blend file, so the export still works after it is reopened.
"""

bl_info = {
    "name": "Parkan: Iron Strategy models, maps and levels (mshconv)",
    "author": "mshconv",
    "version": (1, 0, 0),
    "blender": (3, 4, 0),
    "location": "File > Import / Export > Parkan model, Parkan map",
    "description": "Import and export Parkan MSH models (loose or in NRes archives) and maps "
                   "(Land.msh + Land.map), byte for byte when unedited",
    "category": "Import-Export",
}

if "bpy" in locals():
    import importlib

    importlib.reload(mshconv)  # noqa: F821
    importlib.reload(operators)  # noqa: F821

import bpy  # noqa: E402

from . import mshconv, operators  # noqa: E402,F401


class ParkanPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    mshconv_path: bpy.props.StringProperty(
        name="mshconv",
        subtype="FILE_PATH",
        description="The mshconv program (empty: `mshconv` on PATH, else the one the add-on "
                    "carries for this system)",
        default="",
    )

    def draw(self, context):
        self.layout.prop(self, "mshconv_path")
        try:
            found = mshconv.executable(context)
            self.layout.label(text=f"Using {found}")
        except mshconv.MshconvError as e:
            self.layout.label(text=str(e), icon="ERROR")


def menu_import(self, context):
    self.layout.operator(operators.ImportParkanModel.bl_idname, text="Parkan model (.msh, .rlb)")
    self.layout.operator(operators.ImportParkanMap.bl_idname, text="Parkan map (Land.msh)")
    self.layout.operator(operators.ImportParkanLevel.bl_idname, text="Parkan level (data.tma)")


def menu_export(self, context):
    self.layout.operator(operators.ExportParkanModel.bl_idname, text="Parkan model (.msh, .rlb)")
    self.layout.operator(operators.ExportParkanMap.bl_idname, text="Parkan map (Land.msh)")
    self.layout.operator(operators.ExportParkanLevel.bl_idname, text="Parkan level (data.tma)")


classes = (ParkanPreferences, operators.ImportParkanModel, operators.ImportParkanMap,
           operators.ImportParkanLevel, operators.ExportParkanModel, operators.ExportParkanMap,
           operators.ExportParkanLevel)


def register():
    for c in classes:
        bpy.utils.register_class(c)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for c in reversed(classes):
        bpy.utils.unregister_class(c)
