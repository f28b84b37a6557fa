console.log("gdm placeholder", process.argv.slice(2));
