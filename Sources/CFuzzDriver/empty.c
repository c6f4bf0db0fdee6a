// The target exists for its header: libFuzzer provides the function it declares.
