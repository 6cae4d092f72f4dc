/// The JSON shapes of TMDB API v3 for a film.
extension TMDBFilm {
    /// A result of `search/movie`.
    var searchResult: JSON {
        [
            "adult": false, "backdrop_path": .null, "genre_ids": .array(genreIDs.map(JSON.int)), "id": .int(id),
            "original_language": .string(originalLanguage), "original_title": .string(originalTitle),
            "overview": .string(overview), "popularity": .double(popularity), "poster_path": .string(posterPath),
            "release_date": .string(releaseDate), "title": .string(title), "video": false,
            "vote_average": .double(voteAverage), "vote_count": .int(voteCount),
        ]
    }

    /// `movie/{id}`, without appended responses.
    var details: JSON {
        [
            "adult": false, "backdrop_path": .null, "belongs_to_collection": .null, "budget": 0,
            "genres": .array(genreIDs.map { ["id": .int($0), "name": .optional(TMDBCatalogue.genres[$0])] }),
            "homepage": "", "id": .int(id), "imdb_id": .string(imdbID), "origin_country": [],
            "original_language": .string(originalLanguage), "original_title": .string(originalTitle),
            "overview": .string(overview), "popularity": .double(popularity), "poster_path": .string(posterPath),
            "production_companies": [], "production_countries": [], "release_date": .string(releaseDate),
            "revenue": 0, "runtime": .int(runtime), "spoken_languages": [], "status": "Released", "tagline": "",
            "title": .string(title), "video": false, "vote_average": .double(voteAverage),
            "vote_count": .int(voteCount),
        ]
    }

    /// `movie/{id}/external_ids`.
    var externalIDs: JSON {
        [
            "id": .int(id), "imdb_id": .string(imdbID), "wikidata_id": .null, "facebook_id": .null,
            "instagram_id": .null, "twitter_id": .null,
        ]
    }

    /// `movie/{id}/credits`. Person ids are the catalogue's own, stable across runs.
    var credits: JSON {
        let cast: [JSON] = cast.enumerated().map { index, member in
            [
                "adult": false, "gender": 0, "id": .int(Self.personID(member.name)), "known_for_department": "Acting",
                "name": .string(member.name), "original_name": .string(member.name), "popularity": 10.0,
                "profile_path": .null, "cast_id": .int(index + 1), "character": .string(member.character),
                "credit_id": .string("ferry-\(id)-cast-\(index)"), "order": .int(index),
            ]
        }
        let crew: [JSON] = [
            [
                "adult": false, "gender": 0, "id": .int(Self.personID(director)), "known_for_department": "Directing",
                "name": .string(director), "original_name": .string(director), "popularity": 10.0,
                "profile_path": .null,
                "credit_id": .string("ferry-\(id)-crew-0"), "department": "Directing", "job": "Director",
            ]
        ]
        return ["id": .int(id), "cast": .array(cast), "crew": .array(crew)]
    }

    /// A stable id for a person's name (FNV-1a, folded into a positive Int32 range).
    static func personID(_ name: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % 9_000_000) + 1_000_000
    }
}
