#include "pss.h"
