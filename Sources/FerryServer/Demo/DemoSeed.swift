import Foundation

/// Loads the demo data (`seedDemo`) with fixed ids, so demos and client tests can name them.
///
/// Users `demo` / `demo-password` (id `u_demo`) and `sam` / `sam-password` (id `u_sam`);
/// demo's movies and people; recipes (two saved by demo); the family group `g_demo_family`
/// (creator demo, member sam, managed member `mem_kid`) with the open round `r_demo_round`;
/// and the audio library (see ``DemoAudio``).
enum DemoSeed {
    static func load(into environment: ServerEnvironment) async throws {
        let configuration = environment.configuration
        let now = environment.now
        let audio = await DemoAudio.files(seconds: configuration.demoTrackSeconds)
        try await environment.database.write { db in
            guard try Users.find(db, id: "u_demo") == nil else { return }
            let cost = configuration.passwordHashCost
            _ = try Users.create(
                db,
                id: "u_demo",
                username: "demo",
                password: "demo-password",
                displayName: "Demo User",
                cost: cost,
                now: now
            )
            _ = try Users.create(
                db,
                id: "u_sam",
                username: "sam",
                password: "sam-password",
                displayName: "Sam",
                cost: cost,
                now: now
            )
            try seedMovies(db, now: now)
            try seedRecipes(db, now: now)
            try seedFamily(db, now: now)
            try DemoAudio.seed(db, files: audio, now: now)
        }
    }

    static func seedMovies(_ db: any SQLSession, now: Date) throws {
        let scope = "user:u_demo"
        let entries: [(id: String, tmdb: Int, status: String, rating: Int?, watched: String?, recommender: String?)] = [
            ("m_demo_heat", 949, "want_to_watch", nil, nil, "Sam"),
            ("m_demo_dune", 438631, "watched", 9, "2024-03-02", "Alex"),
            ("m_demo_spirited", 129, "want_to_watch", nil, nil, "Sam"),
            ("m_demo_arrival", 329865, "watched", 8, "2023-11-18", nil),
        ]
        for entry in entries {
            guard let film = TMDBCatalogue.film(entry.tmdb) else { continue }
            var data = MovieRoutes.entity(for: film)
            data["status"] = .string(entry.status)
            data["my_rating"] = .optional(entry.rating)
            data["date_watched"] = .optional(entry.watched)
            data["recommender"] = .optional(entry.recommender)
            data["created_at"] = .string(Timestamp.string(now))
            try Entities.put(db, MovieRoutes.collection, scope: scope, id: entry.id, data: data, now: now)
        }
        try People.recompute(db, scope: scope, now: now)
    }

    static func seedRecipes(_ db: any SQLSession, now: Date) throws {
        let recipes: [(String, JSON)] = [
            (
                "demo-shakshuka",
                [
                    "title": "Shakshuka", "servings": 2, "minutes": 25,
                    "ingredients": ["4 eggs", "1 can tomatoes", "1 onion", "1 red pepper", "cumin", "paprika"],
                    "steps": [
                        "Soften onion and pepper", "Add spices and tomatoes, simmer 10 min",
                        "Poach the eggs in the sauce",
                    ],
                ]
            ),
            (
                "demo-pancakes",
                [
                    "title": "Fluffy pancakes", "servings": 4, "minutes": 20,
                    "ingredients": ["200 g flour", "2 eggs", "300 ml milk", "1 tbsp sugar", "2 tsp baking powder"],
                    "steps": ["Whisk dry, then wet", "Rest 5 minutes", "Cook on a hot pan until bubbles form, flip"],
                ]
            ),
            (
                "demo-dal",
                [
                    "title": "Red lentil dal", "servings": 4, "minutes": 35,
                    "ingredients": ["250 g red lentils", "1 onion", "garlic", "ginger", "turmeric", "coconut milk"],
                    "steps": [
                        "Rinse lentils", "Simmer with turmeric 20 min",
                        "Fry aromatics, stir in, finish with coconut milk",
                    ],
                ]
            ),
        ]
        for (id, document) in recipes {
            var data = document
            data["owner_id"] = "u_demo"
            data["created_at"] = .string(Timestamp.string(now))
            data["photo"] = .null
            if id == "demo-shakshuka" {
                let info = try Blobs.put(
                    db,
                    key: RecipePhotoRoutes.blobKey(id),
                    contentType: "image/png",
                    data: PosterImage.png(for: 7),
                    now: now
                )
                data["photo"] = [
                    "content_type": "image/png", "byte_size": .int(info.byteSize), "sha256": .string(info.sha256),
                    "url": .string("/v1/recipes/\(id)/photo"),
                ]
            }
            try Entities.put(db, RecipeRoutes.collection, scope: RecipeRoutes.scope, id: id, data: data, now: now)
        }
        for id in ["demo-shakshuka", "demo-dal"] {
            try Entities.put(
                db,
                SavedRecipeRoutes.collection,
                scope: "user:u_demo",
                id: id,
                data: [
                    "recipe_id": .string(id), "saved_at": .string(Timestamp.string(now)),
                ],
                now: now
            )
        }
    }

    static func seedFamily(_ db: any SQLSession, now: Date) throws {
        let groupID = "g_demo_family"
        let scope = FamilyAccess.scope(groupID)
        let stamp = JSON.string(Timestamp.string(now))
        try Entities.put(
            db,
            "groups",
            scope: scope,
            id: groupID,
            data: [
                "name": "Movie Night", "creator_user_id": "u_demo", "created_at": stamp,
            ],
            now: now
        )
        let members: [(String, JSON)] = [
            (
                "mem_demo",
                [
                    "group_id": .string(groupID), "user_id": "u_demo", "display_name": "Demo User", "managed": false,
                    "manager_user_id": .null, "role": "creator",
                ]
            ),
            (
                "mem_sam",
                [
                    "group_id": .string(groupID), "user_id": "u_sam", "display_name": "Sam", "managed": false,
                    "manager_user_id": .null, "role": "member",
                ]
            ),
            (
                "mem_kid",
                [
                    "group_id": .string(groupID), "user_id": .null, "display_name": "Kiddo", "managed": true,
                    "manager_user_id": "u_demo", "role": "managed",
                ]
            ),
        ]
        for (id, data) in members { try Entities.put(db, "members", scope: scope, id: id, data: data, now: now) }
        let roundID = "r_demo_round"
        try Entities.put(
            db,
            "rounds",
            scope: scope,
            id: roundID,
            data: [
                "group_id": .string(groupID), "name": "Friday", "status": "voting", "created_by_member_id": "mem_demo",
                "created_at": stamp, "closed_at": .null, "attendees": ["mem_demo", "mem_sam", "mem_kid"],
            ],
            now: now
        )
        for (tmdb, member) in [(129, "mem_kid"), (603, "mem_sam")] {
            guard let film = TMDBCatalogue.film(tmdb) else { continue }
            try Entities.put(
                db,
                "suggestions",
                scope: scope,
                id: "\(roundID)-\(tmdb)",
                data: [
                    "round_id": .string(roundID), "tmdb_id": .int(tmdb), "title": .string(film.title),
                    "year": .optional(film.year),
                    "poster_path": .string(film.posterPath), "suggested_by_member_id": .string(member),
                ],
                now: now
            )
        }
        try Entities.put(
            db,
            "votes",
            scope: scope,
            id: "\(roundID)-129-mem_sam",
            data: [
                "round_id": .string(roundID), "tmdb_id": 129, "member_id": "mem_sam", "value": "up",
                "cast_by_user_id": "u_sam",
            ],
            now: now
        )
    }
}
