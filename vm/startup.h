/* The start-up layer's header (startup.c): the one table of the layouts,
 * the types in their order and the built-in modules, as main.c runs them. */
#ifndef TMPY_STARTUP_H
#define TMPY_STARTUP_H

#include "modules/modules.h"

/* Fill tmpy.h's hook table with the upper layers' functions: first thing
 * at start-up, before anything can call one. */
void vm_install_hooks(void);
void vm_init_types(void);                 /* the types, each layer's *_init_type in order */
/* Registers the built-in C modules and sets up the state of those that need
 * it before any import (after builtins_init and sys_init). */
void vm_init_modules(void);

#endif
