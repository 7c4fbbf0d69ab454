/* glibc's <features.h>, as far as its libm sources use it. */
#pragma once
#define __GNUC_PREREQ(maj, min) ((__GNUC__ << 16) + __GNUC_MINOR__ >= ((maj) << 16) + (min))
