"""A screenshot of the add-on's import dialog (File > Import > Parkan model on an archive: the
model list and the export options), for docs/ and the README. Needs Blender's UI: run under
Xvfb (blender_addon.py does):

  xvfb-run blender --factory-startup --python THIS -- ZIP ARCHIVE OUT.png
"""
import sys

import bpy

zip_path, archive, out = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)
bpy.ops.preferences.addon_enable(module="io_scene_parkan")
# The file browser in the main window rather than a window of its own: one screenshot shows it.
bpy.context.preferences.view.filebrowser_display_type = "SCREEN"


def window_context():
    win = bpy.context.window_manager.windows[0]
    return bpy.context.temp_override(window=win, screen=win.screen)


def open_dialog():
    with window_context():
        bpy.ops.import_scene.parkan_model("INVOKE_DEFAULT", filepath=archive)
    bpy.app.timers.register(shoot, first_interval=3.0)


def shoot():
    with window_context():
        bpy.ops.screen.screenshot(filepath=out)
    print("SCREENSHOT", out)
    bpy.ops.wm.quit_blender()


bpy.app.timers.register(open_dialog, first_interval=2.0)
