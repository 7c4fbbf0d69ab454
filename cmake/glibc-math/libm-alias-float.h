#pragma once
#include "libm-alias-double.h"
