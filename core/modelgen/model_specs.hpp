// The generated model sets of Arch2End's device modelling (docs/model-generation.md), in one
// header for their users: the benchmark suite, the simulation spaces, GPT-2 decoder stacks, and
// the writer that saves any of them as ONNX files with a manifest.
#pragma once

#include "benchmark_suite.hpp"
#include "decoder_stack.hpp"
#include "model_spec.hpp"
#include "model_writer.hpp"
#include "simulation_spaces.hpp"
