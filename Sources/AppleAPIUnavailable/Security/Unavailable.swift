// On Apple platforms Apple's own Security framework answers `import Security`:
// this module is empty so that the package resolves there (Package.swift).
