// StageMixCore
