import Foundation
import PackagePlugin

/// Writes the template fields of each view model (`Render/*Models.swift`) at build time, so a
/// model is declared once and its lookup by name can never be stale. The generator is
/// `Scripts/generate_template_fields.py`: Python is already needed to install Pagefind, and a
/// Swift tool would be built with the fuzzing build's sanitizer flags, which give it a second
/// `main`.
@main
struct TemplateFields: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let script = context.package.directoryURL.appending(path: "Scripts/generate_template_fields.py")
        return target.sourceFiles(withSuffix: "Models.swift").map { file in
            let name = file.url.deletingPathExtension().lastPathComponent
            let output = context.pluginWorkDirectoryURL.appending(path: name + "+Generated.swift")
            return .buildCommand(displayName: "Template fields of \(name)", executable: URL(fileURLWithPath: "/usr/bin/env"),
                                 arguments: ["python3", script.path, file.url.path, output.path],
                                 inputFiles: [file.url, script], outputFiles: [output])
        }
    }
}
