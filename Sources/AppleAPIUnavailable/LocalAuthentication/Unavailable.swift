// On Apple platforms Apple's own LocalAuthentication framework answers `import LocalAuthentication`:
// this module is empty so that the package resolves there (Package.swift).
