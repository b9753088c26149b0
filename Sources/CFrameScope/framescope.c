#include "framescope.h"
