/* The Windows build's stb: the two parts mshconv uses (formats/picture.cpp), with the defines
   Debian's libstb compiles them with. */
#define STB_DEFINE
#define STB_PERFECT_HASH
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
#define STB_IMAGE_RESIZE_IMPLEMENTATION
#include <stb/stb_image_resize.h>
