// On Apple platforms Apple's own DeviceCheck framework answers `import DeviceCheck`:
// this module is empty so that the package resolves there (Package.swift).
