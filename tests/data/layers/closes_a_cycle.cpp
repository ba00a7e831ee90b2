// A deliberately wrong include, for the engine_layers_refuse_cycle test: checked as if it
// were a file of engine/ir (the bottom layer), it reaches up to the driver, which depends
// on ir, so it would close a cycle.
#include "engine/driver/simulate_project.h"
