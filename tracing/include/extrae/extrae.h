/* Extrae's umbrella header (parallax tracing library): the user API. */
#ifndef PARALLAX_EXTRAE_H
#define PARALLAX_EXTRAE_H
#include "extrae_user_events.h"
#endif
