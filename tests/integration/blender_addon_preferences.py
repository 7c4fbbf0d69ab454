"""A screenshot of the add-on's preferences (Edit > Preferences > Add-ons, Parkan expanded: the
mshconv it runs), for docs/windows.md and the README. Needs Blender's UI: run under Xvfb, with
BLENDER_USER_SCRIPTS and BLENDER_USER_CONFIG set to a folder of its own
(tests/windows/addon_binaries.py --update-docs does):

  xvfb-run -s "-screen 0 1280x800x24" blender --factory-startup --python THIS -- ZIP OUT.png
"""
import sys

import bpy

zip_path, out = sys.argv[sys.argv.index("--") + 1:]
bpy.context.preferences.view.show_splash = False
bpy.ops.preferences.addon_install(filepath=zip_path, overwrite=True)
bpy.ops.preferences.addon_enable(module="io_scene_parkan")
bpy.context.preferences.active_section = "ADDONS"
bpy.context.window_manager.addon_search = "Parkan"
bpy.ops.preferences.addon_expand(module="io_scene_parkan")


def show_preferences():
    # The main window's largest area becomes the Preferences editor: one screenshot shows it.
    win = bpy.context.window_manager.windows[0]
    area = max(win.screen.areas, key=lambda a: a.width * a.height)
    area.type = "PREFERENCES"
    bpy.app.timers.register(shoot, first_interval=2.0)


def shoot():
    win = bpy.context.window_manager.windows[0]
    with bpy.context.temp_override(window=win, screen=win.screen):
        bpy.ops.screen.screenshot(filepath=out)
    print("SCREENSHOT", out)
    bpy.ops.wm.quit_blender()


bpy.app.timers.register(show_preferences, first_interval=2.0)
