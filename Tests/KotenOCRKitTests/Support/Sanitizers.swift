import Foundation

/// Whether this test process runs under AddressSanitizer or ThreadSanitizer (`make test-asan`, `make test-tsan`,
/// `swift test --sanitize=…`). Their allocators and shadow memory change what a resident-memory figure means
/// (a peak RSS, the bytes a release gives back), so the tests that measure memory skip those checks under them;
/// everything else is checked as usual.
enum Sanitizers {
    static let active: Bool = {
        guard let program = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(program, "__asan_init") != nil || dlsym(program, "__tsan_init") != nil
    }()
}
