; Inno Setup 6.3+ script: wraps the one-folder build (dist\earshot, from `python packaging\build.py`)
; into dist\earshot-<version>-windows-x64-setup.exe with a Start-menu entry and an uninstaller.
; build.py runs it when ISCC is installed; by hand (from the repository root):
;   ISCC /DAppVersion=0.1.0 /DSourceDir=dist\earshot /DIconFile=build\staging\earshot.ico /Odist packaging\windows\earshot.iss
; The version comes from pyproject.toml through build.py: there is no version to edit here.
; Installs per user (no administrator rights; %LOCALAPPDATA%\Programs\Earshot) unless the user
; chooses "all users" in the first dialog. Uninstalling leaves the user's settings, transcripts
; and model cache (%LOCALAPPDATA%\earshot); delete that folder to remove them too.

#ifndef AppVersion
  #error Pass /DAppVersion=<version> (packaging\build.py does)
#endif
#ifndef SourceDir
  #define SourceDir "..\..\dist\earshot"
#endif

[Setup]
; AppId identifies the product for upgrades and the uninstaller: never change it.
AppId={{6B1E3C9A-4F27-4D8B-9E52-0C7A1D2F8B34}
AppName=Earshot
AppVersion={#AppVersion}
AppVerName=Earshot {#AppVersion}
AppPublisher=Earshot developers
DefaultDirName={autopf}\Earshot
DefaultGroupName=Earshot
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputBaseFilename=earshot-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
UninstallDisplayName=Earshot {#AppVersion}
UninstallDisplayIcon={app}\earshot.exe
#ifdef IconFile
SetupIconFile={#IconFile}
#endif
; Sign the installer and uninstaller when a sign tool is configured in the Inno Setup IDE or with
; ISCC /Ssigntool="signtool sign /fd sha256 /tr http://timestamp.digicert.com /td sha256 /f $qcert.pfx$q /p PASS $f"
; (then also add: SignTool=signtool). Unsigned installers work but SmartScreen warns on download.

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
; earshot.exe is the windowed app; earshot-cli.exe the same program with a console (--self-test, transcribe).
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\Earshot"; Filename: "{app}\earshot.exe"
Name: "{group}\Uninstall Earshot"; Filename: "{uninstallexe}"
Name: "{autodesktop}\Earshot"; Filename: "{app}\earshot.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\earshot.exe"; Description: "{cm:LaunchProgram,Earshot}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; Files the app may have written next to itself (Python byte-code caches, logs); user data stays.
Type: filesandordirs; Name: "{app}\_internal\__pycache__"
